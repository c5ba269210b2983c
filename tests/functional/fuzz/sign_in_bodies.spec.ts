import { test } from '@japa/runner'
import { randomPrivateKey } from '@stacks/transactions'
import {
  assertDeclaredAnswer,
  assertNothingWritten,
  bodyAround,
  databaseFingerprint,
  fuzz,
  isRefusal,
  rawCall,
  useFuzzGroup,
} from '#tests/support/fuzz'
import { signMessage, walletOf } from '#tests/support/sign_in'

/** The Sign-In With Stacks bodies, near valid ones: a declared answer, and a refusal writes nothing. */
test.group('Fuzzing | sign-in bodies', (group) => {
  useFuzzGroup(group)

  test('POST /auth/nonce', async () => {
    const valid = { wallet_address: walletOf(randomPrivateKey()) }
    await fuzz(bodyAround(valid), async (body) => {
      const before = await databaseFingerprint()
      const answer = await rawCall('POST', '/auth/nonce', { body })
      assertDeclaredAnswer(answer, body)
      if (isRefusal(answer)) await assertNothingWritten(before, body)
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
      const before = await databaseFingerprint()
      const answer = await rawCall('POST', '/auth/verify', { body })
      assertDeclaredAnswer(answer, body)
      if (isRefusal(answer)) await assertNothingWritten(before, body)
    })
  })
})
