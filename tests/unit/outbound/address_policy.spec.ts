import { test } from '@japa/runner'
import { describeAddress, isPublicAddress } from '#outbound/address_policy'

const addresses: Array<[address: string, isPublic: boolean]> = [
  ['127.0.0.1', false],
  ['127.255.0.9', false],
  ['10.0.0.5', false],
  ['10.255.255.255', false],
  ['172.16.0.1', false],
  ['172.31.255.254', false],
  ['172.32.0.1', true],
  ['192.168.1.1', false],
  ['169.254.169.254', false],
  ['100.64.0.1', false],
  ['100.127.255.254', false],
  ['0.0.0.0', false],
  ['255.255.255.255', false],
  ['224.0.0.1', false],
  ['240.0.0.1', false],
  ['::', false],
  ['::1', false],
  ['fc00::1', false],
  ['fd12:3456::1', false],
  ['fe80::1', false],
  ['febf::1', false],
  ['ff02::1', false],
  ['::ffff:127.0.0.1', false],
  ['::ffff:10.0.0.1', false],
  ['::ffff:8.8.8.8', false],
  ['::7f00:1', false],
  ['64:ff9b::a00:5', false],
  ['2002:a00:5::1', false],
  ['8.8.8.8', true],
  ['1.1.1.1', true],
  ['2606:4700::1111', true],
  ['2a00:1450:4001:80b::200e', true],
  ['partner.example', false],
  ['', false],
]

test.group('The outbound address policy', () => {
  for (const [address, expected] of addresses) {
    test(`${address || '(empty)'} is ${expected ? 'public' : 'refused'}`, ({ assert }) => {
      assert.equal(isPublicAddress(address), expected)
    })
  }

  test('names the range of a refused address', ({ assert }) => {
    assert.equal(describeAddress('10.0.0.5'), 'a private address')
    assert.equal(describeAddress('127.0.0.1'), 'a loopback address')
    assert.equal(describeAddress('169.254.169.254'), 'a link-local address')
    assert.equal(describeAddress('100.64.0.1'), 'a carrier-grade NAT address')
    assert.equal(describeAddress('::ffff:10.0.0.1'), 'an IPv4-mapped address')
    assert.equal(describeAddress('240.0.0.1'), 'a non-public address')
  })
})
