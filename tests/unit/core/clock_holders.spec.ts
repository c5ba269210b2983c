import { readdir, readFile } from 'node:fs/promises'
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import { CLOCK_HOLDERS } from '#tests/support/clock'

/**
 * The singletons the providers bind whose factory makes the Clock, read from
 * the provider files: each binding's text runs from
 * `this.app.container.singleton(Name,` to the next `this.app.container.` call.
 * The container does not expose its factories' dependencies, so the source is
 * read instead; a factory reaching the Clock only through another singleton
 * is not a holder (that singleton is).
 */
async function singletonsTakingTheClock() {
  const folder = app.makePath('providers')
  const holders: string[] = []
  for (const file of await readdir(folder)) {
    if (!file.endsWith('.ts')) continue
    const source = await readFile(`${folder}/${file}`, 'utf8')
    for (const binding of source.split(/this\.app\.container\./).slice(1)) {
      const singleton = /^singleton\(\s*(\w+)\s*,/.exec(binding)
      if (singleton && singleton[1] !== 'Clock' && /\bmake\(\s*Clock\s*\)/.test(binding)) {
        holders.push(singleton[1])
      }
    }
  }
  return holders.sort()
}

test.group('Singletons holding the Clock', () => {
  test('every provider singleton made with the Clock is one useManualClock resolves first', async ({
    assert,
  }) => {
    const holders = await singletonsTakingTheClock()
    assert.isAbove(holders.length, 0, 'the provider files are read')
    assert.deepEqual(
      holders,
      CLOCK_HOLDERS.map((holder) => holder.name).sort(),
      'tests/support/clock.ts CLOCK_HOLDERS lists exactly them'
    )
  })
})
