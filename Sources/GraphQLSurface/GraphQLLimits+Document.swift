import GatehouseHTTP
import GraphQL

extension GraphQLLimits {
    /// Refuses a parsed document whose selections are too deep, too aliased or too costly, or
    /// whose argument literals nest too deep.
    ///
    /// Fragment spreads are expanded where they are used; a spread of a fragment already being
    /// expanded is skipped (the library reports the cycle). Counting stops at the first limit
    /// passed, so even a fragment "bomb" costs at most ``maxCost`` steps.
    package func checkDocument(_ document: Document) throws(Exceeded) {
        var fragments: [String: FragmentDefinition] = [:]
        for case let fragment as FragmentDefinition in document.definitions {
            fragments[fragment.name.value] = fragment
        }
        var walk = SelectionWalk(limits: self, fragments: fragments)
        for definition in document.definitions {
            if let operation = definition as? OperationDefinition {
                for variable in operation.variableDefinitions {
                    if let value = variable.defaultValue { try checkLiteral(value) }
                }
                try checkDirectives(operation.directives)
                try walk.visit(operation.selectionSet, depth: 1)
            } else if let fragment = definition as? FragmentDefinition {
                // Also walked where spread; walked here for its literals even when unused.
                try checkDirectives(fragment.directives)
                try walk.visit(fragment.selectionSet, depth: 1)
            }
        }
    }

    package func checkDirectives(_ directives: [Directive]) throws(Exceeded) {
        for directive in directives {
            for argument in directive.arguments { try checkLiteral(argument.value) }
        }
    }

    /// Refuses a list or object literal nested deeper than ``maxLiteralDepth``.
    package func checkLiteral(_ value: Value, depth: Int = 0) throws(Exceeded) {
        let children: [Value]
        if let list = value as? ListValue {
            children = list.values
        } else if let object = value as? ObjectValue {
            children = object.fields.map(\.value)
        } else {
            return
        }
        guard depth < maxLiteralDepth else {
            throw Exceeded(message: "Argument values may nest lists and objects at most \(maxLiteralDepth) levels deep")
        }
        for child in children { try checkLiteral(child, depth: depth + 1) }
    }
}

/// One pass over a document's selections, counting what ``GraphQLLimits`` bounds.
private struct SelectionWalk {
    package let limits: GraphQLLimits
    package let fragments: [String: FragmentDefinition]
    package var cost = 0
    package var aliases = 0
    package var expanding: Set<String> = []

    package mutating func visit(_ selectionSet: SelectionSet, depth: Int) throws(GraphQLLimits.Exceeded) {
        guard depth <= limits.maxSelectionDepth else {
            throw .init(message: "The document nests fields more than \(limits.maxSelectionDepth) levels deep")
        }
        for selection in selectionSet.selections {
            try count()
            if let field = selection as? Field {
                if field.alias != nil {
                    aliases += 1
                    guard aliases <= limits.maxAliases else {
                        throw .init(message: "The document may use at most \(limits.maxAliases) aliases")
                    }
                }
                for argument in field.arguments { try limits.checkLiteral(argument.value) }
                try limits.checkDirectives(field.directives)
                if let children = field.selectionSet { try visit(children, depth: depth + 1) }
            } else if let inline = selection as? InlineFragment {
                try limits.checkDirectives(inline.directives)
                try visit(inline.selectionSet, depth: depth)
            } else if let spread = selection as? FragmentSpread {
                try limits.checkDirectives(spread.directives)
                let name = spread.name.value
                guard let fragment = fragments[name], !expanding.contains(name) else { continue }
                expanding.insert(name)
                try visit(fragment.selectionSet, depth: depth)
                expanding.remove(name)
            }
        }
    }

    private mutating func count() throws(GraphQLLimits.Exceeded) {
        cost += 1
        guard cost <= limits.maxCost else {
            throw .init(message: "The document is too costly: at most \(limits.maxCost) fields, fragments expanded")
        }
    }
}
