import GraphQL

// GraphQLSwift 4.3 declares `__InputValue.isDeprecated` as `Boolean!` but gives it no resolver,
// and its argument and input-field types have no such property, so any client that introspects
// input values' deprecation (gql's default, GraphiQL's) gets "Cannot return null for
// non-nullable field __InputValue.isDeprecated". These conformances answer the fields the
// default resolver looks up, `isDeprecated` included.

extension GraphQLArgumentDefinition: @retroactive KeySubscriptable {
    public subscript(key: String) -> (any Sendable)? {
        inputValueField(key, name: name, description: description, type: type, deprecationReason: deprecationReason)
    }
}

extension InputObjectFieldDefinition: @retroactive KeySubscriptable {
    public subscript(key: String) -> (any Sendable)? {
        inputValueField(key, name: name, description: description, type: type, deprecationReason: deprecationReason)
    }
}

/// The `__InputValue` fields the default resolver looks up by name.
private func inputValueField(
    _ key: String, name: String, description: String?, type: GraphQLInputType, deprecationReason: String?
) -> (any Sendable)? {
    switch key {
    case "name": name
    case "description": description
    case "type": type
    case "isDeprecated": deprecationReason != nil
    case "deprecationReason": deprecationReason
    default: nil
    }
}
