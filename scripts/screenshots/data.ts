/** Per-kit looks and the made-up (but plausible, and fixed) data its screens show. */
export type Theme = { app: string; accent: string; dark: boolean; nav: string[] };

export const THEMES: Record<string, Theme> = {
  'django-htmx-starter': {
    app: 'Taskwise',
    accent: '#0c8a5f',
    dark: false,
    nav: ['Projects', 'Tasks', 'Team', 'Reports', 'Settings'],
  },
  'expo-mobile-starter': { app: 'Habitly', accent: '#f2643d', dark: false, nav: [] },
  'go-sveltekit-api': {
    app: 'Relay API',
    accent: '#0ea5e9',
    dark: true,
    nav: ['Overview', 'API keys', 'Request logs', 'Webhooks', 'Billing'],
  },
  'laravel-vue-crm': {
    app: 'Pipewave CRM',
    accent: '#e11d48',
    dark: false,
    nav: ['Dashboard', 'Contacts', 'Companies', 'Deals', 'Tasks', 'Reports'],
  },
  'nextjs-saas-starter': {
    app: 'Launchpad',
    accent: '#6d28d9',
    dark: false,
    nav: ['Dashboard', 'Projects', 'Team', 'Billing', 'Settings'],
  },
  'react-vite-admin': {
    app: 'Northwind Admin',
    accent: '#2563eb',
    dark: false,
    nav: ['Dashboard', 'Orders', 'Products', 'Customers', 'Analytics', 'Settings'],
  },
};

const FIRST = [
  'Amelia',
  'Jonas',
  'Priya',
  'Mateo',
  'Hannah',
  'Kenji',
  'Sofia',
  'Omar',
  'Lena',
  'Diego',
  'Chloe',
  'Rafael',
];
const LAST = [
  'Novak',
  'Berg',
  'Raman',
  'Silva',
  'Keller',
  'Tanaka',
  'Rossi',
  'Haddad',
  'Fischer',
  'Ortega',
  'Martin',
  'Costa',
];
const COMPANIES = [
  'Brightline',
  'Copperleaf',
  'Northstar Labs',
  'Fieldnote',
  'Quarry & Co',
  'Helio Systems',
  'Bluepine',
  'Ridgeway',
];

export const person = (i: number) => `${FIRST[i % FIRST.length]} ${LAST[(i * 5 + 3) % LAST.length]}`;
export const company = (i: number) => COMPANIES[i % COMPANIES.length]!;
export const emailOf = (i: number) =>
  `${FIRST[i % FIRST.length]!.toLowerCase()}@${company(i)
    .toLowerCase()
    .replace(/[^a-z]/g, '')}.com`;
export const date = (i: number) => {
  const month = ['Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep'][i % 7]!;
  return `${month} ${((i * 7) % 27) + 1}, 2025`;
};
/** A fixed wavy series for charts: deterministic, looks like real growth. */
export const series = (n: number, base: number, growth: number) =>
  Array.from({ length: n }, (_, i) =>
    Math.round(base + growth * i + Math.sin(i * 1.7) * base * 0.12 + Math.cos(i * 0.9) * base * 0.06),
  );
