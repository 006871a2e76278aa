/// Latency samples, in seconds, as every phase of the benchmark reports them.
extension Array where Element == Double {
    /// The `quantile` (0 to 1) of these seconds, in milliseconds.
    ///
    /// The sample at rank ⌊count × quantile⌋ of the sorted values (the largest for 1), so a
    /// p99 of 500 samples is the fifth largest: no interpolation, a time that was measured.
    func milliseconds(at quantile: Double) -> Double {
        let sorted = self.sorted()
        return sorted[Swift.min(sorted.count - 1, Int(Double(sorted.count) * quantile))] * 1000
    }
}
