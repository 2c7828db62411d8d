import { connectionOf } from '../../../graphql/relay';
import { SecurityAdvisory } from '../../dependency-alerts/graphql/alert.types';

export const SecurityAdvisoryConnection = connectionOf('SecurityAdvisory', SecurityAdvisory, 'a list of global security advisories');
