import { registerEnumType } from 'type-graphql';

// The direction of every sorted list's `direction` argument.

export enum SortDirection { ASC = 'asc', DESC = 'desc' }

registerEnumType(SortDirection, { name: 'SortDirection', description: 'Ascending or descending.' });
