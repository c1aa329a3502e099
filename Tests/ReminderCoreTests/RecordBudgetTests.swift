import Testing
@testable import ReminderCore

@Suite struct RecordBudgetTests {
    /// Spends `count` records at each of `times` (µs) and says which were allowed.
    func spend(_ budget: inout RecordBudget, _ count: Int = 1, at times: [Int64]) -> [Bool] {
        times.map { budget.spend(count, at: $0) }
    }

    @Test func aBurstThenOneAMinute() {
        var budget = RecordBudget(now: 0)
        let burst = spend(&budget, at: (0..<Int64(RecordBudget.capacity)).map { $0 })
        #expect(burst == Array(repeating: true, count: RecordBudget.capacity))
        #expect(spend(&budget, at: [100, 59 * Micro.second, 60 * Micro.second + 100, 61 * Micro.second]) == [false, false, true, false])
        // An hour later the budget is full again, never more.
        let later = 3_700 * Micro.second
        let refilled = spend(&budget, at: Array(repeating: later, count: RecordBudget.capacity + 1))
        #expect(refilled == Array(repeating: true, count: RecordBudget.capacity) + [false])
    }

    @Test func aTimeScaleRefillsThatManyTimesFaster() {
        var budget = RecordBudget(now: 0, factor: 3600)
        _ = spend(&budget, at: Array(repeating: 0, count: RecordBudget.capacity))
        // One record per 60 s / 3600 = 16.7 ms.
        #expect(spend(&budget, at: [0, 16_000, 17_000]) == [false, false, true])
    }

    @Test func aRefusalSpendsNothingAndTimeGoingBackwardsEarnsNothing() {
        var budget = RecordBudget(now: 1_000 * Micro.second)
        #expect(spend(&budget, RecordBudget.capacity + 1, at: [1_000 * Micro.second]) == [false])
        #expect(spend(&budget, RecordBudget.capacity, at: [1_000 * Micro.second]) == [true])
        #expect(spend(&budget, at: [0, 1_059 * Micro.second, 1_060 * Micro.second]) == [false, false, true])
        #expect(spend(&budget, 0, at: [Int64.max]) == [true])
    }
}
