import { test } from '@japa/runner'
import { processBudget } from '#core/process_budget'

test.group('processBudget', () => {
  test('on {$self} cores the default pools keep every process within 80 connections')
    .with([1, 2, 4, 8, 16, 24])
    .run(({ assert }, cores) => {
      const budget = processBudget({ webWorkers: cores })

      assert.equal(budget.processes, cores + 1)
      assert.isAtMost(budget.processes * (budget.appPool + budget.limiterPool), 80)
      assert.isAtLeast(budget.appPool, 1)
      assert.isNull(budget.overBudget)
    })

  test('a small instance keeps the pools it always had: 10, and 4 for the rate limiter', ({
    assert,
  }) => {
    const budget = processBudget({ webWorkers: 4 })

    assert.deepInclude(budget, { appPool: 10, limiterPool: 4 })
  })

  test('a DB_POOL_MAX the budget cannot hold is named, with what to change', ({ assert }) => {
    const budget = processBudget({ webWorkers: 8, poolMax: 20 })

    assert.include(budget.overBudget, '9 processes')
    assert.include(budget.overBudget, 'exceed DB_MAX_CONNECTIONS=80')
  })

  test('more workers than connections is refused, not shrunk to nothing', ({ assert }) => {
    assert.isString(processBudget({ webWorkers: 60 }).overBudget)
    assert.isNull(processBudget({ webWorkers: 60, maxConnections: 400 }).overBudget)
  })
})
