import * as Notifications from 'expo-notifications';
import { router, Stack, useSegments } from 'expo-router';
import * as SplashScreen from 'expo-splash-screen';
import { StatusBar } from 'expo-status-bar';
import { useEffect } from 'react';
import { AuthProvider, useSession } from '@/lib/auth';
import { registerForPush } from '@/lib/notifications';
import { configurePurchases } from '@/lib/purchases';

SplashScreen.preventAutoHideAsync();

function AuthGate() {
  const { session, loading } = useSession();
  const segments = useSegments();

  useEffect(() => {
    if (loading) return;
    SplashScreen.hideAsync();
    const inAuthGroup = segments[0] === '(auth)';
    if (!session && !inAuthGroup) router.replace('/welcome');
    else if (session && inAuthGroup) router.replace('/');
  }, [session, loading, segments]);

  useEffect(() => {
    if (!session) return;
    configurePurchases(session.user.id);
    registerForPush().catch((error) => console.warn('Push registration failed', error));
  }, [session]);

  useEffect(() => {
    // Tapping a notification opens the route in data.url, e.g. /habit/<id>.
    const sub = Notifications.addNotificationResponseReceivedListener((response) => {
      const url = response.notification.request.content.data?.url;
      if (typeof url === 'string') router.push(url as never);
    });
    return () => sub.remove();
  }, []);

  return (
    <Stack screenOptions={{ headerShown: false }}>
      <Stack.Screen name="(auth)" />
      <Stack.Screen name="(tabs)" />
      <Stack.Screen name="habit/[id]" options={{ headerShown: true, title: '' }} />
      <Stack.Screen name="paywall" options={{ presentation: 'modal' }} />
    </Stack>
  );
}

export default function RootLayout() {
  return (
    <AuthProvider>
      <StatusBar style="auto" />
      <AuthGate />
    </AuthProvider>
  );
}
