import { signingSecrets } from '#core/signing_secrets'

/** Partner Bridge secrets (`tbs_…`): Tollbooth signs its requests to the partner with K. */
export const partnerSecrets = signingSecrets('tbs_', 'Partner Bridge')
