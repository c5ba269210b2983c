import { test } from '@japa/runner'
import { RECIPIENT, SENDER, broadcast, transfer, useDevnet } from '../src/testing.js'
import type { Devnet } from '../src/index.js'

async function page(devnet: Devnet, txid: string) {
  const response = await fetch(`${devnet.url}/txid/${txid}`)
  return { status: response.status, headers: response.headers, html: await response.text() }
}

/** The page's text as a reader sees it: tags dropped, entities and spaces as on screen. */
function text(html: string) {
  return html
    .replace(/<style>[\s\S]*<\/style>/, '')
    .replace(/<[^>]+>/g, ' ')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&')
    .replace(/\s+/g, ' ')
}

test.group('Devnet transaction pages (GET /txid/0x…)', (group) => {
  const devnet = useDevnet(group)

  test('a pending transfer: status, sender, recipient, amount in STX and µSTX, fee, nonce, memo', async ({
    assert,
  }) => {
    const tx = await transfer({ amount: 5_000n, fee: 1_000n, nonce: 0n, memo: 'tb-w-42' })
    await broadcast(devnet(), tx)

    const shown = await page(devnet(), `0x${tx.txid()}`)

    assert.equal(shown.status, 200)
    assert.equal(shown.headers.get('content-type'), 'text/html; charset=utf-8')
    const words = text(shown.html)
    assert.include(words, `0x${tx.txid()}`)
    assert.include(words, 'Status pending')
    assert.include(words, 'Block not mined yet')
    assert.include(words, `Sender ${SENDER.address}`)
    assert.include(words, `Recipient ${RECIPIENT}`)
    assert.include(words, 'Amount 0.005 STX (5000 µSTX)')
    assert.include(words, 'Fee 0.001 STX (1000 µSTX)')
    assert.include(words, 'Nonce 0')
    assert.include(words, 'Memo tb-w-42')
  })

  test('a mined transfer shows confirmed and its block height', async ({ assert }) => {
    const tx = await transfer({})
    await broadcast(devnet(), tx)
    const block = await devnet().mine()
    await devnet().mine()

    const shown = await page(devnet(), tx.txid())
    const words = text(shown.html)

    assert.include(words, 'Status confirmed')
    assert.include(words, `Block ${block.blockHeight} (2 confirmations)`)
    assert.include(words, 'Memo (none)')
  })

  test("the service's links name the chain (?chain=testnet): the page ignores the query", async ({
    assert,
  }) => {
    const tx = await transfer({})
    await broadcast(devnet(), tx)

    const shown = await page(devnet(), `0x${tx.txid()}?chain=testnet`)

    assert.equal(shown.status, 200)
    assert.include(text(shown.html), `0x${tx.txid()}`)
  })

  test('an aborted transfer shows failed', async ({ assert }) => {
    const tx = await transfer({})
    devnet().faults.abort(tx.txid())
    await broadcast(devnet(), tx)
    await devnet().mine()

    const shown = await page(devnet(), `0x${tx.txid()}`)

    assert.include(text(shown.html), 'Status failed')
  })

  test('an unknown or malformed id is a 404 page', async ({ assert }) => {
    for (const txid of [`0x${'ab'.repeat(32)}`, 'not-a-txid']) {
      const shown = await page(devnet(), txid)

      assert.equal(shown.status, 404)
      assert.equal(shown.headers.get('content-type'), 'text/html; charset=utf-8')
      assert.include(text(shown.html), `Transaction not found ${txid}`)
    }
  })

  test('the page is self-contained: no script, no external asset, fits a phone', async ({
    assert,
  }) => {
    const tx = await transfer({ memo: '<script>x</script>' })
    await broadcast(devnet(), tx)

    const shown = await page(devnet(), `0x${tx.txid()}`)

    assert.notInclude(shown.html, '<script')
    assert.include(shown.html, '&lt;script&gt;x&lt;/script&gt;')
    assert.notMatch(shown.html, /(src|href)="(https?:)?\/\//)
    assert.include(
      shown.html,
      '<meta name="viewport" content="width=device-width, initial-scale=1">'
    )
    assert.equal(
      shown.headers.get('content-security-policy'),
      "default-src 'none'; style-src 'unsafe-inline'"
    )
  })

  test('an injected node fault does not hit the page, and stays for the node', async ({
    assert,
  }) => {
    const tx = await transfer({})
    await broadcast(devnet(), tx)
    devnet().faults.failNext(1, 503)

    const shown = await page(devnet(), `0x${tx.txid()}`)
    assert.equal(shown.status, 200)
    const node = await fetch(`${devnet().url}/v2/info`)
    assert.equal(node.status, 503)
  })
})
