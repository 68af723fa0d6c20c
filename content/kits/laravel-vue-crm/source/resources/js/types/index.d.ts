export type DealStage = 'lead' | 'qualified' | 'proposal' | 'negotiation' | 'won' | 'lost';

export interface User {
  id: number;
  name: string;
  email: string;
  role: 'admin' | 'manager' | 'sales';
}

export interface Deal {
  id: number;
  title: string;
  value_cents: number;
  stage: DealStage;
  position: number;
  expected_close_on: string | null;
  owner_id: number;
  company: { id: number; name: string } | null;
  owner: { id: number; name: string };
}

export interface BoardColumn {
  stage: DealStage;
  label: string;
  total_cents: number;
  deals: Deal[];
}

export type PageProps<T extends Record<string, unknown> = Record<string, unknown>> = T & {
  auth: { user: User };
  can: { manageUsers: boolean; importContacts: boolean };
  flash: { success: string | null };
};
