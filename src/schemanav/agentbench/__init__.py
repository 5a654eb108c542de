"""`schemanav agent-bench`: the agent loop over many labelled tasks in several modes
(`inline`, `navigate`, `slice`, `oracle`), scored without a live API. It sits above `agent`
and `bench`: it runs the one and reads the other's task files and metrics."""
