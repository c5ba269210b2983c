import { test } from '@japa/runner'
import { simulate } from '#tests/simulation/simulation'

test.group('Simulation replay', () => {
  test('the same seed draws the same steps and gets the same answers', async ({
    client,
    assert,
  }) => {
    const first = await simulate(client, { seed: 7, steps: 50 })
    const second = await simulate(client, { seed: 7, steps: 50 })

    assert.deepEqual(second.trace, first.trace)
    assert.deepEqual([...second.faults.counts], [...first.faults.counts])
  }).timeout(180_000)
})
