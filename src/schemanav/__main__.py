from schemanav.cli import main

main()
