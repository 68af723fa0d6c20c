import { useColorScheme } from 'react-native';

const palette = {
  teal50: '#F0FDFA',
  teal100: '#CCFBF1',
  teal600: '#0D9488',
  teal700: '#0F766E',
  teal950: '#042F2E',
  slate400: '#94A3B8',
  slate500: '#64748B',
  slate900: '#0F172A',
  white: '#FFFFFF',
  rose500: '#F43F5E',
};

export const light = {
  background: palette.teal50,
  card: palette.white,
  text: palette.slate900,
  muted: palette.slate500,
  accent: palette.teal600,
  accentSoft: palette.teal100,
  danger: palette.rose500,
};

export const dark: typeof light = {
  background: palette.teal950,
  card: '#0B3B39',
  text: '#ECFEFF',
  muted: palette.slate400,
  accent: '#2DD4BF',
  accentSoft: '#134E4A',
  danger: palette.rose500,
};

export const spacing = { xs: 4, sm: 8, md: 16, lg: 24, xl: 32 } as const;
export const radius = { sm: 8, md: 14, lg: 22 } as const;
export const type = {
  title: { fontSize: 28, fontWeight: '700' },
  heading: { fontSize: 20, fontWeight: '600' },
  body: { fontSize: 16 },
  caption: { fontSize: 13 },
} as const;

export function useTheme() {
  return useColorScheme() === 'dark' ? dark : light;
}
