import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync } from 'node:fs'
import { createServer } from 'node:net'
import { setTimeout } from 'node:timers/promises'
import app from '@adonisjs/core/services/app'

export interface ServiceProcessOptions {
  /** postgres://… of the cluster the bench migrated. */
  databaseUrl: string
  /** The chain node (or a counting proxy in front of it). */
  stacksApiUrl: string
  upstreamSimulatorUrl: string
  env: { APP_KEY: string; PLATFORM_PRIVATE_KEY: string }
  /** Write a V8 CPU profile (`node --cpu-prof`) into this directory when the service stops. */
  cpuProfileDir?: string
}

async function freePort() {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

/**
 * The production build (`npm run build`, then build/bin/server.js as
 * `npm start` runs it, NODE_ENV=production) in its own process, so its CPU
 * time is its own (/proc/<pid>/stat) and the load generator's is not in it.
 */
export async function startServiceProcess(options: ServiceProcessOptions) {
  const entry = app.makePath('bench/support/production_server.js')
  if (!existsSync(app.makePath('build/bin/ignitor.js'))) {
    throw new Error('no production build: run `npm run build` first')
  }
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const child = spawn(
    // Node 24, the same binary as this process; none of its loader flags: the build is JavaScript.
    process.execPath,
    [
      ...(options.cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfileDir}`] : []),
      entry,
    ],
    {
      cwd: app.makePath('build'),
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        PORT: String(port),
        PUBLIC_URL: url,
        DATABASE_URL: options.databaseUrl,
        STACKS_NETWORK: 'devnet',
        STACKS_API_URL: options.stacksApiUrl,
        UPSTREAM_SIMULATOR_URL: options.upstreamSimulatorUrl,
        ALLOW_PRIVATE_TARGETS: 'true',
        ...options.env,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    }
  )
  const exited = once(child, 'exit')
  for (let tries = 0; ; tries++) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}`)
    try {
      const answer = await fetch(`${url}/__bench__/bare`)
      if (answer.ok) break
    } catch {
      if (tries > 300) {
        child.kill('SIGTERM')
        throw new Error('the service did not answer in 60 s')
      }
    }
    await setTimeout(200)
  }
  return {
    url,
    pid: child.pid!,
    /** SIGTERM: the app terminates gracefully (and writes its CPU profile). */
    async stop() {
      if (child.exitCode !== null) return
      child.kill('SIGTERM')
      await exited
    },
  }
}
