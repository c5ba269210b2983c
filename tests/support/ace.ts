import { execFile, execFileSync } from 'node:child_process'
import { accessSync, constants } from 'node:fs'
import { delimiter, join, sep } from 'node:path'
import app from '@adonisjs/core/services/app'
import env from '#start/env'
import { frameworkSetting } from '#tests/support/config'

export interface AceRun {
  code: number
  /** stdout then stderr. */
  output: string
  stdout: string
  stderr: string
}

/** The database of this test run, as a URL a child process can connect to. */
export function testDatabaseUrl() {
  const connection = frameworkSetting<{
    port: number
    user: string
    password: string
    database: string
  }>('database.connections.postgres.connection')
  return (
    env.get('DATABASE_URL') ??
    `postgres://${connection.user}:${connection.password}@127.0.0.1:${connection.port}/${connection.database}`
  )
}

/**
 * PATH as a shell outside npm has it: no node_modules directory (npm and the
 * test runner put node_modules/.bin and the pinned node's own bin/ first).
 */
export function pathWithoutNodeModules() {
  return (process.env.PATH ?? '')
    .split(delimiter)
    .filter((dir) => !dir.split(sep).includes('node_modules'))
    .join(delimiter)
}

function isExecutable(file: string) {
  try {
    accessSync(file, constants.X_OK)
    return true
  } catch {
    return false
  }
}

function majorVersionOf(node: string) {
  return Number(/^v(\d+)/.exec(execFileSync(node, ['--version'], { encoding: 'utf8' }))?.[1])
}

/**
 * The machine's own `node` on that PATH (`which -a node`): the first one
 * older than Node 24 when there is one, else the first one.
 */
export function systemNode() {
  const candidates = pathWithoutNodeModules()
    .split(delimiter)
    .map((dir) => join(dir, 'node'))
    .filter(isExecutable)
  const found = candidates.find((node) => majorVersionOf(node) < 24) ?? candidates[0]
  if (!found) throw new Error('no node on PATH outside node_modules')
  return found
}

/**
 * `node ace <args>` as a user or a cron job runs it: a real process on the
 * test database, its exit status and everything it printed. With `bare`, the
 * process has only PATH and `env`: none of this test run's configuration.
 */
export function runAce(
  args: string[],
  options: { node?: string; env?: Record<string, string>; timeoutMs?: number; bare?: boolean } = {}
): Promise<AceRun> {
  return new Promise((resolve) => {
    execFile(
      options.node ?? process.execPath,
      ['ace.js', ...args],
      {
        cwd: app.appRoot.pathname,
        env: options.bare
          ? { PATH: process.env.PATH, ...options.env }
          : {
              ...process.env,
              NODE_ENV: 'test',
              DATABASE_URL: testDatabaseUrl(),
              ...options.env,
            },
        timeout: options.timeoutMs ?? 30_000,
      },
      (error, stdout, stderr) => {
        // Killed (time-out) or not started: no exit code of its own.
        const exitCode = (error as { code?: unknown } | null)?.code
        const code = error ? (typeof exitCode === 'number' ? exitCode : -1) : 0
        resolve({ code, output: `${stdout}${stderr}`, stdout, stderr })
      }
    )
  })
}
