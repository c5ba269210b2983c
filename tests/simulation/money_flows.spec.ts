import { test } from '@japa/runner'
import { TEST_SEEDS, commandPlan } from '#tests/simulation/plan'
import { SimulationFailure, simulate } from '#tests/simulation/simulation'
import { SimulationSummary } from '#tests/simulation/summary'

const fromCommand = commandPlan()
const seeds = fromCommand
  ? fromCommand.seeds.map((seed) => ({ seed, steps: fromCommand.steps, found: undefined }))
  : TEST_SEEDS
/** Generous: a step takes about 0.1–0.5 s of real time on a busy 2-core machine. */
const MS_PER_STEP = 2_000

test.group('Simulated money flows', (group) => {
  const summary = new SimulationSummary()
  group.teardown(() => {
    if (fromCommand) console.log(summary.render())
  })

  for (const { seed, steps, found } of seeds) {
    const title = `seed ${seed}: no money lost, duplicated or overdrawn in ${steps} random steps`
    test(found ? `${title} (found: ${found})` : title, async ({ client }) => {
      try {
        const report = await simulate(client, { seed, steps })
        summary.passed(report)
        // One seed asked for by hand (a replay): its steps, as they ran.
        if (fromCommand?.seeds.length === 1) console.log(report.trace.join('\n'))
      } catch (error) {
        summary.failed(seed, error instanceof SimulationFailure ? error.step : 1)
        throw error
      }
    }).timeout(60_000 + steps * MS_PER_STEP)
  }
})
