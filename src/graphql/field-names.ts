/** GraphQL's name for a REST field, as its callers write it: `include_claim_keys.0` → `includeClaimKeys.0`. */
export function graphqlFieldName(field: string): string {
  return field.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
}
