import Testing

@testable import Passthrough

/// Keeps the target non-empty until the rewriter's tests land (helper A removes this file).
@Test func passthroughModuleLinks() {
  #expect(PassthroughStatistics().bytesReceived == 0)
}
