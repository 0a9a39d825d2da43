import { useEffect, useState } from "preact/hooks";

/** Whether a CSS media query matches now; re-renders when that changes (a phone turned, a window resized). */
export function useMediaQuery(query: string): boolean {
  const [matches, setMatches] = useState(() => matchMedia(query).matches);
  useEffect(() => {
    const list = matchMedia(query);
    const update = () => setMatches(list.matches);
    update();
    list.addEventListener("change", update);
    return () => list.removeEventListener("change", update);
  }, [query]);
  return matches;
}

/** The width below which the dashboard lays screens out for a phone (the CSS breakpoint). */
export const PHONE_QUERY = "(max-width: 720px)";
