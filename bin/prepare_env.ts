/**
 * Runs before `npm run dev` (plain Node, no app code): creates .env from
 * .env.example on a fresh clone and fills in what development needs and no
 * one should have to type: an APP_KEY and a devnet platform wallet key.
 */
import { randomBytes } from 'node:crypto'
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import { randomPrivateKey } from '@stacks/transactions'

const envFile = new URL('../.env', import.meta.url)
const exampleFile = new URL('../.env.example', import.meta.url)

if (!existsSync(envFile)) {
  copyFileSync(exampleFile, envFile)
  console.log('Created .env from .env.example')
}

let contents = readFileSync(envFile, 'utf8')
const generated: string[] = []

function fillIfEmpty(key: string, value: () => string) {
  const line = new RegExp(`^${key}=\\s*$`, 'm')
  if (line.test(contents)) {
    contents = contents.replace(line, `${key}=${value()}`)
    generated.push(key)
  } else if (!new RegExp(`^${key}=`, 'm').test(contents)) {
    contents += `\n${key}=${value()}\n`
    generated.push(key)
  }
}

fillIfEmpty('APP_KEY', () => randomBytes(32).toString('base64url'))
if (!/^STACKS_NETWORK=(mainnet|testnet)\s*$/m.test(contents)) {
  fillIfEmpty('PLATFORM_PRIVATE_KEY', () => randomPrivateKey())
}

if (generated.length > 0) {
  writeFileSync(envFile, contents)
  console.log(`Generated ${generated.join(', ')} in .env (development only)`)
}
