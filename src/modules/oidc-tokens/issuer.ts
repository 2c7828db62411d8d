// The issuer of orgsec's OIDC tokens (OIDC_ISSUER): the `iss` claim, the base of the discovery
// document and JWKS URLs, and, through its path, where orgsec serves them. Without a configured
// URL it is the URL the server listens at plus /oidc (`http://<HOST>:<PORT>/oidc`), known only
// once listening (PORT=0 picks the port then).

const DERIVED_PATH = '/oidc';

export class OidcIssuer {
  private listening: string | undefined;

  /** `configured`: OIDC_ISSUER, or undefined for the listening URL plus /oidc. */
  constructor(private readonly configured?: string) {}

  /** The path the discovery document and JWKS are served under ('' for an issuer at the root). */
  get path(): string {
    if (this.configured === undefined) return DERIVED_PATH;
    return new URL(this.configured).pathname.replace(/\/$/, '');
  }

  /** The issuer URL: what `iss` says and relying parties compare it with. */
  get url(): string {
    if (this.configured !== undefined) return this.configured;
    if (this.listening === undefined) throw new Error('the OIDC issuer is the listening URL, and the server is not listening yet');
    return `${this.listening}${DERIVED_PATH}`;
  }

  /** `https://<host of the issuer>`: the default audience is this plus `/<owner>` (the port stays). */
  get audienceBase(): string {
    return `https://${new URL(this.url).host}`;
  }

  /** Called once the server listens, with the origin it prints (`http://127.0.0.1:3000`). */
  listeningAt(origin: string): void {
    this.listening = origin.replace(/\/$/, '');
  }
}
