import GraphQL
import Graphiti

extension GatehouseGraphQL {
    /// Runs a request through Gatehouse's checks, then the library's validation and execution.
    ///
    /// The order bounds the work an attacker can cause: the text's size and nesting before
    /// parsing, the document's depth, aliases and cost before validation, and the shape of
    /// list and object literals before the library's rules (see ``LiteralShapeRule``). The
    /// schema itself was validated once, when the server started.
    /// - Throws: the library's `GraphQLError` when the text does not parse.
    package func run(_ request: GraphQLRequest, context: GraphQLContext, limits: GraphQLLimits) async throws -> GraphQLResult {
        let document: Document
        do {
            try limits.checkText(request.query)
            document = try parse(source: Source(body: request.query, name: "GraphQL request"))
            try limits.checkDocument(document)
        } catch let exceeded as GraphQLLimits.Exceeded {
            return GraphQLResult(errors: [GraphQLFailure.badRequest(exceeded.message)])
        }
        let shapeErrors = validate(schema: schema.schema, ast: document, rules: [LiteralShapeRule.validate])
        guard shapeErrors.isEmpty else { return GraphQLResult(errors: shapeErrors) }
        let errors = validate(schema: schema.schema, ast: document, rules: specifiedRules + [SingleSignInRule.validate])
        guard errors.isEmpty else { return GraphQLResult(errors: errors) }
        return try await GraphQL.execute(
            schema: schema.schema, documentAST: document, rootValue: resolver, context: context,
            variableValues: request.variables, operationName: request.operationName
        )
    }
}
