import * as Device from 'expo-device';
import * as Notifications from 'expo-notifications';
import { Platform } from 'react-native';
import { supabase } from './supabase';

Notifications.setNotificationHandler({
  handleNotification: async () => ({ shouldShowAlert: true, shouldPlaySound: false, shouldSetBadge: false }),
});

/** Asks for permission once, then stores this device's Expo push token. Returns the token or null. */
export async function registerForPush(): Promise<string | null> {
  if (!Device.isDevice) return null; // simulators cannot receive push notifications

  if (Platform.OS === 'android') {
    await Notifications.setNotificationChannelAsync('default', {
      name: 'Reminders',
      importance: Notifications.AndroidImportance.DEFAULT,
    });
  }

  let { status } = await Notifications.getPermissionsAsync();
  if (status === 'undetermined') ({ status } = await Notifications.requestPermissionsAsync());
  if (status !== 'granted') return null;

  const projectId = process.env.EXPO_PUBLIC_EAS_PROJECT_ID;
  if (!projectId) return null;
  const { data: token } = await Notifications.getExpoPushTokenAsync({ projectId });

  await supabase.from('push_tokens').upsert({ token, platform: Platform.OS, updated_at: new Date().toISOString() }, { onConflict: 'token' });
  return token;
}

/** Daily local reminder for a habit, no server needed. */
export function scheduleDailyReminder(habitId: string, title: string, hour: number, minute: number) {
  return Notifications.scheduleNotificationAsync({
    identifier: `habit-${habitId}`,
    content: { title, body: 'Check it off to keep your streak going.', data: { url: `/habit/${habitId}` } },
    trigger: { type: Notifications.SchedulableTriggerInputTypes.DAILY, hour, minute },
  });
}
