import crypto from 'node:crypto';
import zlib from 'node:zlib';
import type { TokenType } from './grants';

// Generated tokens carry a type prefix and a checksum, so secret scanners can
// recognize a leaked one and a mistyped one is refused before any look-up.
const PREFIX: Record<TokenType, string> = {
  classic: 'osp_',
  oauth: 'oso_',
  fine_grained: 'osf_',
  app_user: 'osu_',
  installation: 'oss_',
};
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BODY_LENGTH = 30;
const CHECKSUM_LENGTH = 6;

function toBase62(value: number, width: number): string {
  let out = '';
  let rest = value;
  for (let i = 0; i < width; i++) {
    out = BASE62[rest % 62]! + out;
    rest = Math.floor(rest / 62);
  }
  return out;
}

function checksum(body: string): string {
  return toBase62(zlib.crc32(body), CHECKSUM_LENGTH);
}

export function generateToken(type: TokenType): string {
  const body = Array.from({ length: BODY_LENGTH }, () => BASE62[crypto.randomInt(62)]).join('');
  return `${PREFIX[type]}${body}${checksum(body)}`;
}

/**
 * False only for a token that looks generated (our prefix and length) but whose
 * checksum is wrong. Tokens given verbatim in world files carry no checksum.
 */
export function hasValidChecksum(token: string): boolean {
  const match = /^os[pofus]_([0-9A-Za-z]{30})([0-9A-Za-z]{6})$/.exec(token);
  if (!match) return true;
  return checksum(match[1]!) === match[2];
}

export function hashToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}
