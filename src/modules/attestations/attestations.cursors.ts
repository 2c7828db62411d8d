import { encodeCursor } from '../../database/keyset';

// Attestation list cursors (REST Link headers and GraphQL edges alike): newest first, by id.

export const ATTESTATIONS_LIST = 'attestations';

export function attestationCursor(attestation: { id: number }): string {
  return encodeCursor(ATTESTATIONS_LIST, [attestation.id]);
}
