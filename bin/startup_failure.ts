import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { APP_ROOT } from './ignitor.js'

/**
 * An invalid configuration is an operator's mistake, not a crash: print one
 * line naming every bad variable instead of a stack trace, and on a fresh
 * clone (no .env, outside production) a second one saying how to make it.
 */
export function printStartupFailure(error: unknown): boolean {
  if (!(error instanceof Error) || !('code' in error) || error.code !== 'E_INVALID_ENV_VARIABLES') {
    return false
  }
  const help = 'help' in error && typeof error.help === 'string' ? error.help : ''
  const problems = help
    .split('\n')
    .map((line) => line.replace(/^-\s*/, '').trim())
    .filter(Boolean)
  console.error(`Tollbooth cannot start, invalid configuration: ${problems.join('; ')}`)
  // Where @adonisjs/env looks for it: ENV_PATH, relative to the app root.
  const envFile = resolve(fileURLToPath(APP_ROOT), process.env.ENV_PATH ?? '', '.env')
  if (process.env.NODE_ENV !== 'production' && !existsSync(envFile)) {
    console.error(
      `There is no ${envFile} yet: \`npm run dev\` creates it on its first run (from .env.example, with an APP_KEY and a devnet wallet key); \`npm run predev\` creates it without starting anything.`
    )
  }
  return true
}
