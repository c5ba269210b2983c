import { spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import { randomPrivateKey } from '@stacks/transactions'

/**
 * Starts bin/server.ts in production mode with the given variables and no
 * .env file (ENV_PATH points at an empty directory), and collects its output.
 */
async function startInProduction(variables: Record<string, string>) {
  const emptyEnvDir = await mkdtemp(join(tmpdir(), 'tollbooth-env-'))
  try {
    return await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, ['--import=@poppinss/ts-exec', 'bin/server.ts'], {
        cwd: app.appRoot.pathname,
        env: {
          PATH: process.env.PATH,
          ENV_PATH: emptyEnvDir,
          NODE_ENV: 'production',
          PORT: '0',
          HOST: '127.0.0.1',
          ...variables,
        },
      })
      let stderr = ''
      child.stderr.on('data', (chunk) => (stderr += chunk))
      const timer = setTimeout(() => child.kill('SIGKILL'), 8_000)
      child.on('close', (code) => {
        clearTimeout(timer)
        resolve({ code, stderr })
      })
    })
  } finally {
    await rm(emptyEnvDir, { recursive: true, force: true })
  }
}

test.group('Starting in production', () => {
  test('refuses to start, in one line, when required variables are missing', async ({ assert }) => {
    const { code, stderr } = await startInProduction({})

    assert.equal(code, 1)
    const lines = stderr.trim().split('\n')
    assert.lengthOf(lines, 1)
    assert.match(lines[0], /^Tollbooth cannot start, invalid configuration: /)
    assert.include(lines[0], 'APP_KEY is required when NODE_ENV=production')
    assert.include(lines[0], 'STACKS_NETWORK is required when NODE_ENV=production')
    assert.include(lines[0], 'PLATFORM_PRIVATE_KEY is required when NODE_ENV=production')
    assert.include(lines[0], 'DATABASE_URL is required when NODE_ENV=production')
    assert.include(lines[0], 'PUBLIC_URL is required when NODE_ENV=production')
    assert.notInclude(stderr, '    at ')
  }).timeout(15_000)

  // Without them it would start an embedded PostgreSQL under tmp/ with a fixed password, and name
  // itself localhost in every payment requirement and sign-in message.
  test('refuses to start without {$self}, naming it, when everything else is valid')
    .with(['DATABASE_URL', 'PUBLIC_URL'])
    .run(async ({ assert }, missing) => {
      const valid: Record<string, string> = {
        APP_KEY: 'x'.repeat(40),
        STACKS_NETWORK: 'testnet',
        PLATFORM_PRIVATE_KEY: randomPrivateKey(),
        DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
        PUBLIC_URL: 'https://tollbooth.example',
      }
      delete valid[missing]

      const { code, stderr } = await startInProduction(valid)

      assert.equal(code, 1)
      assert.equal(
        stderr.trim(),
        `Tollbooth cannot start, invalid configuration: ${missing} is required when NODE_ENV=production`
      )
    })
    .timeout(15_000)

  test('refuses a malformed platform key and network without printing the key', async ({
    assert,
  }) => {
    const { code, stderr } = await startInProduction({
      APP_KEY: 'x'.repeat(40),
      STACKS_NETWORK: 'mainnnet',
      PLATFORM_PRIVATE_KEY: 'secret-looking-but-malformed',
    })

    assert.equal(code, 1)
    assert.include(stderr, 'STACKS_NETWORK must be one of mainnet, testnet, devnet')
    assert.include(stderr, 'PLATFORM_PRIVATE_KEY must be a Stacks private key')
    assert.notInclude(stderr, 'secret-looking-but-malformed')
  }).timeout(15_000)
})
