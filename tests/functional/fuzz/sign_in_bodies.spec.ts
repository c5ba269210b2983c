import { test } from '@japa/runner'
import { randomPrivateKey } from '@stacks/transactions'
import { bodyAround, callAtTheEdge, fuzz, useFuzzGroup } from '#tests/support/fuzz'
import { signMessage, walletOf } from '#tests/support/sign_in'

/** The Sign-In With Stacks bodies, near valid ones: a declared answer, and a refusal writes nothing. */
test.group('Fuzzing | sign-in bodies', (group) => {
  useFuzzGroup(group)

  test('POST /auth/nonce', async () => {
    const valid = { wallet_address: walletOf(randomPrivateKey()) }
    await fuzz(bodyAround(valid), async (body) => {
      await callAtTheEdge('POST', '/auth/nonce', { body }, body)
    })
  })

  test('POST /auth/verify, around a correctly signed answer', async ({ client }) => {
    const key = randomPrivateKey()
    const walletAddress = walletOf(key)
    const issued = await client.post('/auth/nonce').json({ wallet_address: walletAddress })
    const { nonce, message } = issued.body()
    const valid = {
      wallet_address: walletAddress,
      nonce,
      signature: signMessage(message, key),
      public_key: '02'.padEnd(66, '1'),
      message,
    }
    await fuzz(bodyAround(valid), async (body) => {
      await callAtTheEdge('POST', '/auth/verify', { body }, body)
    })
  })
})
