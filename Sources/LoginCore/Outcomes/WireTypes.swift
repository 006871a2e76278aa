@_exported import GatehouseModel

// LoginCore re-exports the wire types (`SignedInUser`, `PersonName`, `ServerErrorCode`) that
// the server and every client share, so a UI that imports LoginCore sees them without a second
// import, while the server uses them without depending on the UI module.
