import { test } from '@japa/runner'
import { SIMULATED_UPSTREAMS } from '@tollbooth/upstream-simulator'
import { UPSTREAM_NAMES } from '#feeds/builtin/upstreams'

test.group('Built-in feed upstreams', () => {
  test('the upstream simulator serves exactly the upstreams the built-in feeds read', ({
    assert,
  }) => {
    assert.sameMembers([...SIMULATED_UPSTREAMS], UPSTREAM_NAMES)
  })
})
