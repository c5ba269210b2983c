import { readFile } from 'node:fs/promises'
import { glob } from 'node:fs/promises'
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import { ERROR_CODES, declaredCodeOf, withCurrentErrorTable } from '#core/error_codes'

test.group('Error codes', () => {
  test("docs/api.md's error table is the one app/core/error_codes.ts declares", async ({
    assert,
  }) => {
    const documented = await readFile(app.makePath('docs/api.md'), 'utf8')
    assert.equal(
      documented,
      withCurrentErrorTable(documented),
      'docs/api.md is out of date: run `node ace docs:error-codes`'
    )
  })

  test('every exception a client can see is declared with the status it answers', async ({
    assert,
  }) => {
    const seen: string[] = []
    for await (const file of glob('app/**/exceptions.ts', { cwd: app.makePath() })) {
      const module = await import(app.makePath(file.replace(/\.ts$/, '.js')))
      for (const [name, Exception] of Object.entries(module)) {
        if (!name.startsWith('E_') || typeof Exception !== 'function') continue
        const error = new (Exception as new (args?: unknown[]) => Error & { status: number })([
          'x',
          'x',
          'x',
        ])
        // A 500 is a bug: it renders as internal_error, its own code is never shown.
        if (error.status === 500) continue
        const code = declaredCodeOf(error)
        assert.exists(code, `${file}: ${name} is not declared in app/core/error_codes.ts`)
        assert.equal(error.status, ERROR_CODES[code!].status, `${name}'s status`)
        seen.push(name)
      }
    }
    assert.includeMembers(seen, [
      'E_FEED_NOT_FOUND',
      'E_TOO_MANY_PAYMENTS_IN_FLIGHT',
      'E_NOT_OWNER',
    ])
  })
})
