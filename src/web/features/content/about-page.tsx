import { Link } from 'react-router';
import { TextPage } from '../../components/text-page.tsx';
import { useScreenTitleAndPageView } from '../../lib/page-view.ts';

/** Who Kitshop is, what a kit contains, how kits are made, the licence in brief and how to reach us (content/legal/about.md). */
export function AboutPage() {
  useScreenTitleAndPageView('/about');
  return (
    <TextPage
      name="about"
      eyebrow="Starter kits built by developers, for developers"
      footer={
        <div className="static-cta">
          <h2 className="h5">Ready to skip the boilerplate?</h2>
          <p>Try the live demos, read the docs, and pick the kit that fits your stack.</p>
          <div className="d-flex flex-wrap gap-2">
            <Link to="/#kits" className="btn btn-primary">
              Browse Kits
            </Link>
            <Link to="/contact" className="btn btn-outline-secondary">
              Contact us
            </Link>
          </div>
        </div>
      }
    />
  );
}
