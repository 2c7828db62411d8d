import { decodeNodeId, encodeNodeId, type NodeType } from '../../src/shared/node-id';

const NODE_TYPES: NodeType[] = [
  'User', 'Organization', 'Enterprise', 'Team', 'Repository', 'OrganizationRole', 'DependencyAlert', 'Advisory', 'Attestation',
];

/** A node id built by hand, as a client forging one would. */
const forge = (prefix: string, payload: string) => `${prefix}_${Buffer.from(payload).toString('base64url')}`;

describe('encodeNodeId and decodeNodeId', () => {
  it.each(NODE_TYPES)('when a %s id is encoded, decodes back to the same type and id', (type) => {
    for (const id of [1, 2, 9, 10, 138, 33679, 2147483647]) {
      expect(decodeNodeId(encodeNodeId(type, id))).toEqual({ type, id });
    }
  });

  it('when the id is beyond the 32-bit ids the database holds, gives undefined', () => {
    expect(decodeNodeId(encodeNodeId('User', 2147483648))).toBeUndefined();
    expect(decodeNodeId(encodeNodeId('User', Number.MAX_SAFE_INTEGER))).toBeUndefined();
  });

  it('when an id is spelled with different unused trailing bits, gives undefined (one canonical spelling)', () => {
    const canonical = encodeNodeId('User', 1);
    const last = canonical.at(-1)!;
    const alias = canonical.slice(0, -1) + (last === 'R' ? 'S' : 'R');
    expect(Buffer.from(alias.slice(2), 'base64url').toString()).toBe(Buffer.from(canonical.slice(2), 'base64url').toString());
    expect(decodeNodeId(alias)).toBeUndefined();
  });

  it('gives every type a distinct id for the same number', () => {
    const ids = NODE_TYPES.map((type) => encodeNodeId(type, 42));
    expect(new Set(ids).size).toBe(NODE_TYPES.length);
  });

  it('gives distinct ids for distinct numbers of one type', () => {
    const ids = Array.from({ length: 500 }, (_, i) => encodeNodeId('Repository', i + 1));
    expect(new Set(ids).size).toBe(500);
  });

  it('gives ids made of URL-safe characters only', () => {
    for (const type of NODE_TYPES) expect(encodeNodeId(type, 123456)).toMatch(/^[A-Z]{1,2}_[A-Za-z0-9_-]+$/);
  });
});

describe('decodeNodeId', () => {
  it.each([
    ['an empty string', ''],
    ['plain text', 'not a node id'],
    ['a prefix alone', 'U_'],
    ['no separator', 'UabcDEF'],
    ['a lower-case prefix', forge('u', 'orgsec:User:1')],
    ['a three-letter prefix', forge('USR', 'orgsec:User:1')],
    ['base64 padding', `U_${Buffer.from('orgsec:User:1').toString('base64')}=`],
    ['characters outside base64url', 'U_b3Jnc2VjOlVzZXI6MQ!!'],
    ['a payload that is not ours', forge('U', 'hello world')],
    ['another application', forge('U', 'github:User:1')],
    ['an unknown type', forge('U', 'orgsec:Gist:1')],
    ['a type in the wrong case', forge('U', 'orgsec:user:1')],
    ['an id that is not a number', forge('U', 'orgsec:User:one')],
    ['a fractional id', forge('U', 'orgsec:User:1.5')],
    ['an id with trailing text', forge('U', 'orgsec:User:1x')],
    ['an id with a leading zero', forge('U', 'orgsec:User:01')],
    ['trailing whitespace', forge('U', 'orgsec:User:1 ')],
  ])('when given %s, gives undefined', (_name, nodeId) => {
    expect(decodeNodeId(nodeId)).toBeUndefined();
  });

  it.each([
    ['User', 'O'],
    ['Organization', 'U'],
    ['OrganizationRole', 'O'],
    ['Advisory', 'DA'],
    ['Attestation', 'A'],
  ] as [NodeType, string][])('when a %s id carries the prefix %s, gives undefined', (type, wrongPrefix) => {
    const valid = encodeNodeId(type, 7);
    const payload = valid.slice(valid.indexOf('_') + 1);
    expect(decodeNodeId(`${wrongPrefix}_${payload}`)).toBeUndefined();
  });

  it.each(NODE_TYPES)('when a %s id is zero or negative, gives undefined', (type) => {
    expect(decodeNodeId(encodeNodeId(type, 0))).toBeUndefined();
    expect(decodeNodeId(encodeNodeId(type, -1))).toBeUndefined();
    expect(decodeNodeId(encodeNodeId(type, -138))).toBeUndefined();
  });

  it('when the id has more than 16 digits, gives undefined', () => {
    expect(decodeNodeId(forge('U', `orgsec:User:${'1'.repeat(17)}`))).toBeUndefined();
  });

  it('when the string is huge, gives undefined', () => {
    expect(decodeNodeId(`U_${'A'.repeat(100_000)}`)).toBeUndefined();
    expect(decodeNodeId(forge('U', `orgsec:User:1${' '.repeat(1000)}`))).toBeUndefined();
    expect(decodeNodeId(forge('R', `orgsec:Repository:${'9'.repeat(1000)}`))).toBeUndefined();
  });

  it.each(['constructor', 'toString', 'hasOwnProperty', 'valueOf'])('when the type names the object property %s, gives undefined', (name) => {
    expect(decodeNodeId(forge('U', `orgsec:${name}:1`))).toBeUndefined();
    expect(decodeNodeId(forge('O', `orgsec:${name}:1`))).toBeUndefined();
  });
});
