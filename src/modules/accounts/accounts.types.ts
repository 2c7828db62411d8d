export interface UserRecord {
  id: number;
  login: string;
  type: 'User' | 'Organization';
  siteAdmin: boolean;
}

export interface OrganizationRecord {
  id: number;
  login: string;
  description: string | null;
  enterpriseId: number | null;
  rolesEnabled: boolean;
}

export interface EnterpriseRecord {
  id: number;
  slug: string;
  name: string;
}

export interface TeamRecord {
  id: number;
  orgId: number;
  slug: string;
  name: string;
  description: string | null;
  privacy: string;
  notificationSetting: string;
  permission: string;
  parentId: number | null;
}

export interface RepositoryRecord {
  id: number;
  ownerId: number;
  ownerLogin: string;
  ownerType: 'User' | 'Organization';
  ownerSiteAdmin: boolean;
  name: string;
  isPrivate: boolean;
  description: string | null;
  fork: boolean;
}
