import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Sign-In With Stacks (docs/api.md#sign-in-with-stacks-auth). A user is a wallet address; its
 * bearer sessions are @adonisjs/auth access tokens (only the SHA-256 hash of
 * the secret is stored). A challenge keeps the exact message it issued and the
 * origin (domain, URI, chain id) it was issued for; `used_at` is set once, by
 * a conditional UPDATE, when it is redeemed. `purpose` tells sign-ins from
 * other signed proofs of a wallet (e.g. 'link_wallet').
 */
export default class extends BaseSchema {
  async up() {
    this.schema.raw(`
      CREATE TABLE users (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        wallet_address text NOT NULL UNIQUE CHECK (wallet_address <> ''),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )
    `)
    this.schema.raw(`
      CREATE TABLE auth_access_tokens (
        id bigserial PRIMARY KEY,
        tokenable_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        type text NOT NULL,
        name text NULL,
        hash text NOT NULL,
        abilities text NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        last_used_at timestamptz NULL,
        expires_at timestamptz NULL
      )
    `)
    this.schema.raw(
      `CREATE INDEX auth_access_tokens_tokenable_id ON auth_access_tokens (tokenable_id)`
    )
    this.schema.raw(`
      CREATE TABLE auth_challenges (
        nonce text PRIMARY KEY CHECK (nonce <> ''),
        wallet_address text NOT NULL,
        purpose text NOT NULL DEFAULT 'sign_in' CHECK (purpose <> ''),
        message text NOT NULL,
        domain text NOT NULL,
        uri text NOT NULL,
        chain_id bigint NOT NULL,
        issued_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL CHECK (expires_at > issued_at),
        used_at timestamptz NULL
      )
    `)
    this.schema.raw(`CREATE INDEX auth_challenges_expires_at ON auth_challenges (expires_at)`)
  }

  async down() {
    this.schema.dropTable('auth_challenges')
    this.schema.dropTable('auth_access_tokens')
    this.schema.dropTable('users')
  }
}
