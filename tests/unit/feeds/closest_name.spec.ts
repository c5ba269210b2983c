import { test } from '@japa/runner'
import { closestName, editDistance } from '#feeds/closest_name'

test.group('The feed a mistyped name meant', () => {
  const ids = ['whale-alerts', 'gas-prediction', 'token-intel', 'token-launches', 'dex-trades']

  test('counts insertions, deletions and substitutions', ({ assert }) => {
    assert.equal(editDistance('whale-alerts', 'whale-alerts'), 0)
    assert.equal(editDistance('whale-alert', 'whale-alerts'), 1)
    assert.equal(editDistance('whael-alerts', 'whale-alerts'), 2)
    assert.equal(editDistance('', 'abc'), 3)
  })

  test('is the closest name within two edits, whatever the case', ({ assert }) => {
    assert.equal(closestName('whale-alert', ids), 'whale-alerts')
    assert.equal(closestName('gas-predicton', ids), 'gas-prediction')
    assert.equal(closestName('Whale-Alerts', ids), 'whale-alerts')
    assert.equal(closestName('token-intl', ids), 'token-intel')
  })

  test('is nothing when no name is that close', ({ assert }) => {
    assert.isUndefined(closestName('no-such-feed', ids))
    assert.isUndefined(closestName('whales', ids))
    assert.isUndefined(closestName('whale-alerts', ids))
  })

  test('short names allow fewer edits', ({ assert }) => {
    assert.isUndefined(closestName('ab', ['xy']))
    assert.isUndefined(closestName('btc', ['eth']))
    assert.equal(closestName('btcc', ['btc']), 'btc')
  })
})
