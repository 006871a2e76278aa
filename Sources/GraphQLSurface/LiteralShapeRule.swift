import GraphQL

/// A validation rule run before the library's: a list or object literal where the schema
/// expects something else is reported here, without printing the literal.
///
/// GraphQL 4.3.0 builds the message for such a literal with `print(ast:)`, whose printer
/// prints every nested value twice, so a 150-byte `{a:{a:…}}` costs seconds. Documents this
/// rule refuses never reach the library's rules; scalar literals, which print in linear
/// time, are left to them.
package enum LiteralShapeRule {
    @Sendable package static func validate(_ context: ValidationContext) -> Visitor {
        Visitor(enter: { node, _, _, _, _ in
            switch node.kind {
            case .listValue:
                // Inside a list literal, the type info's input type is the item's; the list's is the parent's.
                guard let expected = context.parentInputType, !(getNullable(expected) is GraphQLList) else { return .continue }
                context.report(error: mismatch(expected: expected, found: "a list", node: node))
                return .break
            case .objectValue:
                guard let expected = context.inputType, !(getNamedType(type: expected) is GraphQLInputObjectType) else {
                    return .continue
                }
                context.report(error: mismatch(expected: expected, found: "an object", node: node))
                return .break
            default:
                return .continue
            }
        })
    }

    private static func getNullable(_ type: GraphQLInputType) -> GraphQLType {
        (type as? GraphQLNonNull)?.ofType ?? type
    }

    private static func mismatch(expected: GraphQLInputType, found: String, node: Node) -> GraphQLError {
        GraphQLError(message: "Expected value of type \"\(expected)\", found \(found).", nodes: [node])
    }
}
