import { TOKEN_TYPES, type TokenType } from '../../src/auth/grants';
import { generateToken, hasValidChecksum, hashToken } from '../../src/auth/token-format';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const PREFIX_LENGTH = 4;
const BODY_LENGTH = 30;
const CHECKSUM_LENGTH = 6;

const prefixes: [TokenType, string][] = [
  ['classic', 'osp_'],
  ['oauth', 'oso_'],
  ['fine_grained', 'osf_'],
  ['app_user', 'osu_'],
  ['installation', 'oss_'],
];

function withCharAt(token: string, index: number, char: string): string {
  return token.slice(0, index) + char + token.slice(index + 1);
}

describe('generateToken', () => {
  it('has an expected prefix for every token type', () => {
    expect(prefixes.map(([type]) => type).sort()).toEqual([...TOKEN_TYPES].sort());
  });

  it.each(prefixes)('when the type is %s, starts with %s followed by 36 base62 characters', (type, prefix) => {
    const token = generateToken(type);
    expect(token.startsWith(prefix)).toBe(true);
    expect(token).toHaveLength(PREFIX_LENGTH + BODY_LENGTH + CHECKSUM_LENGTH);
    expect(token.slice(PREFIX_LENGTH)).toMatch(/^[0-9A-Za-z]{36}$/);
  });

  it.each(prefixes)('when the type is %s, passes the checksum check', (type) => {
    for (let i = 0; i < 20; i++) expect(hasValidChecksum(generateToken(type))).toBe(true);
  });

  it('gives a different token each time', () => {
    const tokens = new Set(Array.from({ length: 200 }, () => generateToken('classic')));
    expect(tokens.size).toBe(200);
  });
});

describe('hasValidChecksum', () => {
  it('when any one character of the body is changed to any other, fails', () => {
    for (const [type] of prefixes) {
      const token = generateToken(type);
      for (let i = PREFIX_LENGTH; i < PREFIX_LENGTH + BODY_LENGTH; i++) {
        for (const char of BASE62) {
          if (char === token[i]) continue;
          const changed = withCharAt(token, i, char);
          if (hasValidChecksum(changed)) throw new Error(`${changed} (position ${i}) passed the checksum`);
        }
      }
    }
  });

  it('when any one character of the checksum is changed, fails', () => {
    const token = generateToken('fine_grained');
    for (let i = PREFIX_LENGTH + BODY_LENGTH; i < token.length; i++) {
      const char = token[i] === 'a' ? 'b' : 'a';
      expect(hasValidChecksum(withCharAt(token, i, char))).toBe(false);
    }
  });

  it.each([
    ['a world-file token', 'svc_demo_alice'],
    ['a test token', 'tok_owner_classic'],
    ['a foreign prefix of the right length', `ghp_${'a'.repeat(36)}`],
    ['an unknown os prefix of the right length', `osx_${'a'.repeat(36)}`],
    ['our prefix but too short', `osp_${'a'.repeat(35)}`],
    ['our prefix but too long', `osp_${'a'.repeat(37)}`],
    ['our prefix with a character outside base62', `osp_${'a'.repeat(35)}-`],
  ])('when given %s, does not check it (passes)', (_name, token) => {
    expect(hasValidChecksum(token)).toBe(true);
  });

  it('when given our prefix and length with a wrong checksum, fails', () => {
    expect(hasValidChecksum(`osp_${'a'.repeat(30)}000000`)).toBe(false);
  });
});

describe('hashToken', () => {
  it('is the lower-case hex SHA-256 of the token', () => {
    // FIPS 180-2 test vector for "abc".
    expect(hashToken('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('never equals the token and differs for different tokens', () => {
    const tokens = ['svc_demo_alice', generateToken('classic'), generateToken('installation'), ''];
    const hashes = tokens.map(hashToken);
    for (const [i, hash] of hashes.entries()) {
      expect(hash).toMatch(/^[0-9a-f]{64}$/);
      expect(hash).not.toBe(tokens[i]);
    }
    expect(new Set(hashes).size).toBe(tokens.length);
  });

  it('gives the same hash for the same token', () => {
    const token = generateToken('oauth');
    expect(hashToken(token)).toBe(hashToken(token));
  });
});
