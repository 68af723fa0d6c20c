import { type ReactNode, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Field } from '../../components/field.tsx';

/** Sets (or, when empty, removes) one parameter of the address, keeping the others and the history entry. */
export function useSetParam() {
  const [, setParams] = useSearchParams();
  return (name: string, value: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(name, value);
        else next.delete(name);
        return next;
      },
      { replace: true },
    );
}

/**
 * The `Search` field of a list, kept in the address (`?query=`) so a search can be shared and
 * survives going back from a record. `children` adds filters that are set in the address too.
 */
export function SearchForm({ placeholder, children }: { placeholder: string; children?: ReactNode }) {
  const [params] = useSearchParams();
  const setParam = useSetParam();
  const [text, setText] = useState(params.get('query') ?? '');
  return (
    <form
      className="admin-search"
      onSubmit={(event) => {
        event.preventDefault();
        setParam('query', text.trim());
      }}
    >
      <Field
        id="admin-search"
        label="Search"
        spacing="admin-search-field"
        type="search"
        placeholder={placeholder}
        value={text}
        maxLength={200}
        onChange={setText}
        addon={
          <button type="submit" className="btn btn-primary">
            Search
          </button>
        }
      />
      {children}
    </form>
  );
}
