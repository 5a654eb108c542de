"""A tiny movie schema shared by the backend tests: small enough to reason about by hand."""

TINY_MOVIE_SDL = """
type Query {
  "Look up one movie by its id."
  movie(id: ID!): Movie
  "People whose name matches."
  searchPeople(name: String!): [Person!]!
}

type Movie {
  title: String!
  "Release date of the movie in cinemas."
  releaseDate: String
  "Running time in minutes."
  runtimeMinutes: Int
  director: Person
  reviews(first: Int = 10): [Review!]!
}

type Person {
  name: String!
  "The day this person was born."
  birthDate: String
  filmography: [Movie!]!
}

type Review {
  "Score from one to ten."
  rating: Int!
  body: String
  author: Person
}
"""
