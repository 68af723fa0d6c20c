import { useFocusEffect } from 'expo-router';
import { useCallback, useState } from 'react';
import { FlatList, Pressable, StyleSheet, Text, View } from 'react-native';
import { SafeAreaView } from 'react-native-safe-area-context';
import { radius, spacing, type, useTheme } from '@/constants/theme';
import { supabase } from '@/lib/supabase';

interface HabitToday {
  id: string;
  title: string;
  emoji: string;
  done: boolean;
}

const today = () => new Date().toISOString().slice(0, 10);

export default function Today() {
  const theme = useTheme();
  const [habits, setHabits] = useState<HabitToday[]>([]);

  const load = useCallback(async () => {
    const { data, error } = await supabase.from('habits').select('id, title, emoji, checkins(day)').eq('checkins.day', today()).order('created_at');
    if (!error) setHabits(data.map((h) => ({ id: h.id, title: h.title, emoji: h.emoji, done: h.checkins.length > 0 })));
  }, []);

  useFocusEffect(
    useCallback(() => {
      void load();
    }, [load]),
  );

  async function toggle(habit: HabitToday) {
    setHabits((list) => list.map((h) => (h.id === habit.id ? { ...h, done: !h.done } : h)));
    const query = habit.done
      ? supabase.from('checkins').delete().match({ habit_id: habit.id, day: today() })
      : supabase.from('checkins').insert({ habit_id: habit.id, day: today() });
    const { error } = await query;
    if (error) void load(); // roll back the optimistic update
  }

  const done = habits.filter((h) => h.done).length;

  return (
    <SafeAreaView style={[styles.screen, { backgroundColor: theme.background }]}>
      <Text style={[type.title, { color: theme.text }]}>Today</Text>
      <Text style={{ color: theme.muted, marginBottom: spacing.lg }}>
        {done} of {habits.length} done
      </Text>
      <FlatList
        data={habits}
        keyExtractor={(h) => h.id}
        renderItem={({ item }) => (
          <Pressable onPress={() => toggle(item)} style={[styles.row, { backgroundColor: theme.card }]}>
            <Text style={styles.emoji}>{item.emoji}</Text>
            <Text style={[type.body, { color: theme.text, flex: 1 }]}>{item.title}</Text>
            <View style={[styles.check, { borderColor: theme.accent, backgroundColor: item.done ? theme.accent : 'transparent' }]} />
          </Pressable>
        )}
      />
    </SafeAreaView>
  );
}

const styles = StyleSheet.create({
  screen: { flex: 1, paddingHorizontal: spacing.lg },
  row: { flexDirection: 'row', alignItems: 'center', padding: spacing.md, borderRadius: radius.md, marginBottom: spacing.sm },
  emoji: { fontSize: 24, marginRight: spacing.md },
  check: { width: 26, height: 26, borderRadius: 13, borderWidth: 2 },
});
