import { Link } from 'react-router';
import { LEGAL_EFFECTIVE_DATE } from '../../../common/constants.ts';
import type { PageSection } from '../../components/legal-layout.tsx';
import { SupportEmail } from '../../components/support-email.tsx';

/**
 * The full Kitshop Licence Agreement, in sections. The /licence page and the purchased item page's
 * "View Full Licence" dialog both render these, so the two can never disagree.
 */
export const LICENCE_SECTIONS: PageSection[] = [
  {
    id: 'parties',
    title: '1. Parties and definitions',
    content: (
      <>
        <p>
          This Licence Agreement ("Licence") is made between Kitshop ("Kitshop", "we", "us") and the person or legal
          entity that bought a kit from Kitshop and paid for it in full (the "original purchaser", "you"). It applies to
          every kit you buy from us, together with our <Link to="/terms-and-conditions">Terms and Conditions</Link>. If
          the two ever conflict on how you may use a kit, this Licence prevails.
        </p>
        <ul>
          <li>
            <strong>Kit</strong> means the downloadable software starter kit you bought: its source code, user
            interface, styles, images, configuration, documentation and setup guide, in the version you downloaded and
            in every update we publish for it.
          </li>
          <li>
            <strong>End product</strong> means a website, application, service or other work that you or your client
            build using the kit, and that adds substantial original work of its own.
          </li>
          <li>
            <strong>Client</strong> means a person or organisation for whom you build an end product under a contract.
          </li>
        </ul>
        <p>
          By downloading or using a kit you accept this Licence. If you do not accept it, do not use the kit and ask us
          for a refund under our <Link to="/refund-policy">Refund Policy</Link>.
        </p>
      </>
    ),
  },
  {
    id: 'grant',
    title: '2. Grant of licence',
    content: (
      <>
        <p>
          When your payment is confirmed, Kitshop grants you a non-exclusive, non-transferable, perpetual, worldwide
          licence to use, copy and modify the kit to build end products. Under this Licence you may:
        </p>
        <ul>
          <li>use the kit in an unlimited number of personal, commercial or client projects;</li>
          <li>modify the kit in any way, combine it with other software and remove or replace any part of it;</li>
          <li>
            sell, license, distribute, host or give away your end products, or have your clients do so, provided an end
            product is not itself a starter kit, template, theme, boilerplate or UI kit that competes with the kit;
          </li>
          <li>
            keep copies of the kit in private repositories and on the computers and servers you use to build and run
            your end products.
          </li>
        </ul>
        <p>
          The licence is perpetual: it does not expire and needs no renewal, and it continues for the end products you
          have already built even if you stop using the kit.
        </p>
      </>
    ),
  },
  {
    id: 'restrictions',
    title: '3. Restrictions',
    content: (
      <>
        <p>The licence is for the original purchaser only. You may not:</p>
        <ul>
          <li>
            redistribute, resell, rent, lease, sublicense, give away or otherwise share the kit or its source code, as
            is or modified, with anyone who has not bought their own licence;
          </li>
          <li>
            offer the kit, or a work derived from it, as a starter kit, template, theme, boilerplate, UI kit or code
            generator, whether for free or for a fee;
          </li>
          <li>
            publish the kit's source code in a public repository, a package registry, a file-sharing service or anywhere
            else others can download it (your end product's own source may be public only when the kit's code in it
            cannot reasonably be extracted and reused as a kit);
          </li>
          <li>
            transfer or assign this Licence, or the kit, to another person or organisation, except as section 4 allows;
          </li>
          <li>remove or alter the copyright notices in the kit's source files;</li>
          <li>use the kit, or an end product built with it, for any unlawful purpose.</li>
        </ul>
      </>
    ),
  },
  {
    id: 'team-use',
    title: '4. Team and agency use',
    content: (
      <>
        <p>
          One licence covers one purchaser. When the purchaser is a company or other organisation, its employees and
          contractors may work on end products with the kit as part of their work for it; each other organisation that
          wants to use the kit for its own products needs its own licence.
        </p>
        <p>
          An agency or freelancer may use one licence for the projects of all of its clients. You may hand over the
          finished end product, including its source code, to your client, who may then maintain and change that end
          product; the client does not receive a licence to use the kit for other projects.
        </p>
      </>
    ),
  },
  {
    id: 'updates',
    title: '5. Updates and support',
    content: (
      <p>
        Updates we publish for a kit you own are covered by this Licence and are available in your user panel at no
        extra cost for as long as we maintain the kit. We are not obliged to publish updates or to keep a kit compatible
        with future versions of the tools and services it uses. Support for setting up and using the kit is described in
        our Terms and Conditions.
      </p>
    ),
  },
  {
    id: 'third-party',
    title: '6. Third-party components',
    content: (
      <p>
        Kits include open-source libraries, fonts, icons and other third-party components. Each of them stays under its
        own licence, which you will find in the kit's source (for example in its package manifest, a LICENSE file or the
        component's own folder), and you must comply with those licences. This Licence covers only the parts of the kit
        that Kitshop created. Services a kit connects to (payment, e-mail, hosting and similar) are governed by their
        providers' own terms.
      </p>
    ),
  },
  {
    id: 'ownership',
    title: '7. Ownership',
    content: (
      <p>
        The kit is licensed, not sold. Kitshop and its licensors keep all rights, title and interest in the kit, and
        every right not expressly granted in this Licence is reserved. You own the original work you add to build your
        end products.
      </p>
    ),
  },
  {
    id: 'no-warranty',
    title: '8. No warranty',
    content: (
      <p>
        To the extent the law allows, the kit is provided "as is" and "as available", without warranties of any kind,
        express or implied, including warranties of merchantability, fitness for a particular purpose, non-infringement,
        or that the kit will be free of errors or work in every environment. You are responsible for reviewing, testing,
        securing and maintaining your end products.
      </p>
    ),
  },
  {
    id: 'liability',
    title: '9. Limitation of liability',
    content: (
      <>
        <p>
          To the extent the law allows, Kitshop is not liable for any indirect, incidental, special or consequential
          damages, or for any loss of profits, revenue, data or goodwill, arising from the use of the kit or of end
          products built with it. Our total liability under this Licence is limited to the amount you paid for the kit.
        </p>
        <p>
          Nothing in this Licence limits liability that cannot be limited by law, or the mandatory rights you have as a
          consumer.
        </p>
      </>
    ),
  },
  {
    id: 'termination',
    title: '10. Termination',
    content: (
      <>
        <p>
          This Licence ends automatically if you breach any of its terms, and when the purchase of the kit is refunded.
          When it ends you must stop using the kit and delete every copy of it that you hold. End products you lawfully
          built and delivered before a refund remain licensed; a licence ended by breach covers nothing further.
        </p>
        <p>Sections 3, 7, 8, 9 and 11 continue to apply after the Licence ends.</p>
      </>
    ),
  },
  {
    id: 'governing-law',
    title: '11. Governing law',
    content: (
      <p>
        This Licence is governed by the laws of the Republic of Türkiye (Turkish law). The courts and enforcement
        offices of Istanbul have jurisdiction over any dispute arising from it, without prejudice to any mandatory right
        you have as a consumer to bring proceedings where you live.
      </p>
    ),
  },
  {
    id: 'contact',
    title: '12. Contact',
    content: (
      <p>
        Questions about this Licence, or need a licence on other terms (for example to build a product that would
        otherwise compete with a kit)? E-mail us at <SupportEmail />.
      </p>
    ),
  },
];

/**
 * The licence as running text, for places without the legal pages' frame (the item page's dialog):
 * the effective date, then each section under a heading of the given level.
 */
export function LicenceText({ headingLevel = 'h3' }: { headingLevel?: 'h2' | 'h3' }) {
  const Heading = headingLevel;
  return (
    <div className="licence-text">
      <p className="licence-effective">{`Effective Date: ${LEGAL_EFFECTIVE_DATE}`}</p>
      {LICENCE_SECTIONS.map((section) => (
        <section key={section.id}>
          <Heading>{section.title}</Heading>
          {section.content}
        </section>
      ))}
    </div>
  );
}
