import { forbiddenAddressReason, forbiddenUrlReason } from '../../src/modules/webhooks/target-policy';

// Addresses from the IANA special-purpose registries (RFC 6890 and its updates) and the cloud
// metadata endpoints a hook must never reach, against public addresses it may.

describe('forbiddenAddressReason', () => {
  it.each([
    ['127.0.0.1', 'a loopback address'], ['127.255.0.9', 'a loopback address'], ['::1', 'a loopback address'],
    ['10.1.2.3', 'a private address'], ['172.16.0.1', 'a private address'], ['172.31.255.255', 'a private address'], ['192.168.1.1', 'a private address'],
    ['169.254.169.254', 'a link-local address'], ['fe80::1', 'a link-local address'], ['fd00:ec2::254', 'a private address'],
    ['100.64.0.1', 'a carrier-grade NAT address'], ['0.0.0.0', 'an unspecified address'], ['::', 'an unspecified address'],
    ['224.0.0.1', 'a multicast address'], ['ff02::1', 'a multicast address'], ['255.255.255.255', 'a reserved address'],
    ['::ffff:127.0.0.1', 'a loopback address'], ['::ffff:169.254.169.254', 'a link-local address'],
  ])('%s is %s', (address, reason) => {
    expect(forbiddenAddressReason(address)).toBe(reason);
  });

  it.each(['8.8.8.8', '140.82.112.3', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.4.4'])('%s may be reached', (address) => {
    expect(forbiddenAddressReason(address)).toBeNull();
  });

  it('says a name is not an address', () => {
    expect(forbiddenAddressReason('example.com')).toBe('not an IP address');
  });
});

describe('forbiddenUrlReason', () => {
  it.each([
    ['ftp://example.com/hook', 'must be an http or https URL'],
    ['https://user:pw@example.com/hook', 'must not carry credentials'],
    ['http://127.0.0.1:8080/hook', 'points to a loopback address'],
    ['http://[::1]/hook', 'points to a loopback address'],
    ['http://169.254.169.254/latest/meta-data', 'points to a link-local address'],
    ['http://localhost:3000/', 'points to a local host name'],
    ['http://api.localhost/', 'points to a local host name'],
    ['http://metadata.google.internal/computeMetadata/v1/', 'points to a local host name'],
  ])('%s: %s', (url, reason) => {
    expect(forbiddenUrlReason(new URL(url), false)).toBe(reason);
  });

  it('accepts a public URL, and private ones when private targets are allowed', () => {
    expect(forbiddenUrlReason(new URL('https://hooks.example.com/orgsec'), false)).toBeNull();
    expect(forbiddenUrlReason(new URL('http://127.0.0.1:8080/hook'), true)).toBeNull();
    expect(forbiddenUrlReason(new URL('ftp://127.0.0.1/'), true)).toBe('must be an http or https URL');
  });
});
