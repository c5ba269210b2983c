import { test } from '@japa/runner'
import {
  appKey,
  memoPrefix,
  privateKey,
  proxyList,
  requiredIn,
  stacksNetwork,
  url,
} from '#core/env_rules'

test.group('Environment rules', () => {
  test('a variable required in production is refused there when missing, optional elsewhere', ({
    assert,
  }) => {
    const inProduction = requiredIn('production', ['production'], stacksNetwork)
    const inDevelopment = requiredIn('development', ['production'], stacksNetwork)

    assert.throws(
      () => inProduction('STACKS_NETWORK', undefined),
      'STACKS_NETWORK is required when NODE_ENV=production'
    )
    assert.throws(
      () => inProduction('STACKS_NETWORK', ''),
      'STACKS_NETWORK is required when NODE_ENV=production'
    )
    assert.isUndefined(inDevelopment('STACKS_NETWORK', undefined))
    assert.equal(inProduction('STACKS_NETWORK', 'mainnet'), 'mainnet')
  })

  test('malformed values are refused with a message naming the variable', ({ assert }) => {
    assert.throws(
      () => stacksNetwork('STACKS_NETWORK', 'main'),
      'STACKS_NETWORK must be one of mainnet, testnet, devnet'
    )
    assert.throws(
      () => privateKey('PLATFORM_PRIVATE_KEY', 'abc'),
      /^PLATFORM_PRIVATE_KEY must be a Stacks private key/
    )
    assert.throws(
      () => privateKey('PLATFORM_PRIVATE_KEY', `${'a'.repeat(64)}02`),
      /PLATFORM_PRIVATE_KEY/
    )
    assert.throws(() => appKey('APP_KEY', 'short'), 'APP_KEY must be at least 32 characters long')
    assert.throws(
      () => url(['postgres'])('DATABASE_URL', 'mysql://x'),
      'DATABASE_URL must use one of: postgres'
    )
    assert.throws(() => url(['https'])('EXPLORER_URL', 'not a url'), 'EXPLORER_URL must be a URL')
    assert.throws(
      () => memoPrefix('WITHDRAWAL_MEMO_PREFIX', 'Too-Long-Prefix-For-A-Memo'),
      /WITHDRAWAL_MEMO_PREFIX/
    )
    assert.throws(
      () => proxyList('TRUSTED_PROXIES', '10.0.0.1, lb.internal'),
      'TRUSTED_PROXIES must list addresses or CIDR ranges: invalid IP address: lb.internal'
    )
    assert.throws(
      () => proxyList('TRUSTED_PROXIES', '10.0.0.0/33'),
      /^TRUSTED_PROXIES must list addresses or CIDR ranges/
    )
    assert.throws(
      () => proxyList('TRUSTED_PROXIES', ' , '),
      'TRUSTED_PROXIES must list at least one address or range'
    )
  })

  test('well-formed values are parsed', ({ assert }) => {
    assert.equal(privateKey('K', `${'A'.repeat(64)}01`), `${'a'.repeat(64)}01`)
    assert.equal(privateKey('K', 'b'.repeat(64)), 'b'.repeat(64))
    assert.equal(url(['https'])('U', 'https://api.hiro.so/'), 'https://api.hiro.so')
    assert.equal(memoPrefix('M', 'tb'), 'tb')
    assert.deepEqual(proxyList('P', '10.0.0.0/8, fd00::1,loopback'), [
      '10.0.0.0/8',
      'fd00::1',
      'loopback',
    ])
  })
})
