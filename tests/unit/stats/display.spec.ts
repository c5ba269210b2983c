import { test } from '@japa/runner'
import { sanitiseAgentName, shortAddress } from '#stats/agent_name'
import { reputation } from '#stats/reputation'
import { timeAgo } from '#stats/time_ago'

test.group('Agent names', () => {
  test('a trimmed name of 1 to 48 characters is kept', ({ assert }) => {
    assert.equal(sanitiseAgentName('  research-bot 🤖 '), 'research-bot 🤖')
    assert.equal(sanitiseAgentName('é'.repeat(48)), 'é'.repeat(48))
  })

  test('empty, too long, control or format characters are ignored', ({ assert }) => {
    for (const value of [
      '',
      '   ',
      'x'.repeat(49),
      'bell\u0007',
      'new\nline',
      'rtl\u202Eevil',
      'zero\u200Bwidth',
      undefined,
      null,
    ]) {
      assert.isUndefined(sanitiseAgentName(value), JSON.stringify(value))
    }
  })
})

test.group('Display helpers', () => {
  test('addresses are shortened to their first and last four characters', ({ assert }) => {
    assert.equal(shortAddress('SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7'), 'SP2J…9EJ7')
  })

  test('time ago reads like a person would say it', ({ assert }) => {
    const now = 1_000_000_000
    assert.equal(timeAgo(now - 2_000, now), 'just now')
    assert.equal(timeAgo(now - 42_000, now), '42s ago')
    assert.equal(timeAgo(now - 3 * 60_000, now), '3m ago')
    assert.equal(timeAgo(now - 5 * 3_600_000, now), '5h ago')
    assert.equal(timeAgo(now - 2 * 86_400_000, now), '2d ago')
  })

  test('reputation adds volume, speed and reliability into a tier', ({ assert }) => {
    assert.deepEqual(reputation(0, 0, 100), { score: 30, tier: 'bronze' })
    assert.deepEqual(reputation(1_000, 100, 100), { score: 98, tier: 'diamond' })
    assert.deepEqual(reputation(100, 500, 90), { score: 51, tier: 'silver' })
    assert.deepEqual(reputation(10, 2_000, 50), { score: 15, tier: 'unverified' })
  })
})
