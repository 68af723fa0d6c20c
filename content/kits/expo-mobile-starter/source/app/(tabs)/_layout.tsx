import { Tabs } from 'expo-router';
import { Text } from 'react-native';
import { useTheme } from '@/constants/theme';

/** One entry per file in app/(tabs)/; the file name is the route. */
export default function TabsLayout() {
  const theme = useTheme();
  return (
    <Tabs
      screenOptions={{
        headerShown: false,
        tabBarActiveTintColor: theme.accent,
        tabBarInactiveTintColor: theme.muted,
        tabBarStyle: { backgroundColor: theme.card },
      }}
    >
      <Tabs.Screen
        name="index"
        options={{ title: 'Today', tabBarIcon: ({ color }) => <Text style={{ color, fontSize: 18 }}>✓</Text> }}
      />
    </Tabs>
  );
}
