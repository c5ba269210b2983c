/** The environment variable bin/simulate.ts (npm run simulate) hands its seeds and steps over in. */
export const PLAN_VARIABLE = 'TOLLBOOTH_SIMULATION'

export interface SimulationPlan {
  seeds: number[]
  steps: number
}

/** A seed `npm test` runs, and the bug it found (kept so the bug cannot come back). */
export interface TestSeed {
  seed: number
  steps: number
  found?: string
}

/**
 * The seeds `npm test` runs: fast, yet between them payments, withdrawals,
 * jobs, crashes and chain faults; and every seed that found a bug, with the
 * steps it needed (see docs/simulation.md).
 */
export const TEST_SEEDS: TestSeed[] = [
  {
    seed: 1,
    steps: 80,
    found:
      'a transfer the node reported dropped was failed (the buyer told transaction_failed), then mined: charged for nothing',
  },
  { seed: 2, steps: 40 },
]

/** The plan `npm run simulate` asked for, or null when the suite runs under `npm test`. */
export function commandPlan(): SimulationPlan | null {
  const value = process.env[PLAN_VARIABLE]
  return value ? (JSON.parse(value) as SimulationPlan) : null
}
