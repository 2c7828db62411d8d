// What must not reach text users read (OpenAPI descriptions, pages, GraphQL descriptions):
// section marks and operation numbers of the spec they never see, and files they do not have.
// (spec.openapis.org, the OpenAPI dialect's URL, is the one "spec" they may meet.)
export const USER_TEXT_LEAKS = /§|\bspec\b(?!\.openapis\.org)|#\d+\b|reference\.md|interfaces\.md|\.\.\/shared|\bshared\//i;
