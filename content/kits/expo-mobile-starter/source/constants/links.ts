// Required by App Store Review Guideline 3.1.2 on any subscription paywall.
export const LINKS = {
  terms: 'https://example.com/terms',
  privacy: 'https://example.com/privacy',
  support: 'mailto:support@example.com',
} as const;
