/**
 * `npm run simulate -- --seed N --steps K` (one seed, e.g. to replay a
 * failure) or `npm run simulate -- --seeds 100 [--first-seed 1] [--steps K]`:
 * the deterministic simulation of every money flow (tests/simulation),
 * outside `npm test`. It drives the services the way the functional tests do
 * (the test environment's throw-away PostgreSQL, the HTTP server, in-process
 * devnets), so this runs the japa suite `simulation` with the plan in
 * TOLLBOOTH_SIMULATION (read by tests/simulation/plan.ts); the suite prints a
 * summary at the end. Plain Node, no app code: an ace command would hand the
 * development .env it loads (keys, log level) down to the test run.
 */
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'

const USAGE = 'usage: npm run simulate -- (--seed N | --seeds COUNT [--first-seed N]) [--steps K]'

function wholeNumber(name: string, value: string | undefined, fallback?: number): number {
  if (value === undefined && fallback !== undefined) return fallback
  if (value === undefined || !/^\d+$/.test(value)) {
    console.error(`--${name} must be a whole number\n${USAGE}`)
    process.exit(1)
  }
  return Number(value)
}

function options() {
  try {
    return parseArgs({
      options: {
        'seed': { type: 'string' },
        'seeds': { type: 'string' },
        'first-seed': { type: 'string' },
        'steps': { type: 'string' },
      },
    }).values
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`)
    process.exit(1)
  }
}

const values = options()
const steps = wholeNumber('steps', values.steps, 100)
const seeds =
  values.seed !== undefined
    ? [wholeNumber('seed', values.seed)]
    : Array.from(
        { length: Math.max(1, wholeNumber('seeds', values.seeds, 1)) },
        (_, index) => wholeNumber('first-seed', values['first-seed'], 1) + index
      )

const child = spawn(process.execPath, ['ace.js', 'test', 'simulation', '--files=money_flows'], {
  cwd: fileURLToPath(new URL('../', import.meta.url)),
  stdio: 'inherit',
  env: { ...process.env, TOLLBOOTH_SIMULATION: JSON.stringify({ seeds, steps }) },
})
child.on('exit', (code) => process.exit(code ?? 1))
