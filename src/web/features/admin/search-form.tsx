import { type ReactNode, useState } from 'react';
import { useSearchParams } from 'react-router';

/**
 * The `Search` field of a list, kept in the address (`?query=`) so a search can be shared and
 * survives going back from a record. `children` adds filters that are set in the address too.
 */
export function SearchForm({ placeholder, children }: { placeholder: string; children?: ReactNode }) {
  const [params, setParams] = useSearchParams();
  const [text, setText] = useState(params.get('query') ?? '');
  return (
    <form
      className="admin-search"
      onSubmit={(event) => {
        event.preventDefault();
        setParams(
          (current) => {
            const next = new URLSearchParams(current);
            if (text.trim()) next.set('query', text.trim());
            else next.delete('query');
            return next;
          },
          { replace: true },
        );
      }}
    >
      <div className="admin-search-field">
        <label htmlFor="admin-search" className="form-label">
          Search
        </label>
        <div className="input-group">
          <input
            id="admin-search"
            type="search"
            className="form-control"
            placeholder={placeholder}
            value={text}
            maxLength={200}
            onChange={(e) => setText(e.target.value)}
          />
          <button type="submit" className="btn btn-primary">
            Search
          </button>
        </div>
      </div>
      {children}
    </form>
  );
}
