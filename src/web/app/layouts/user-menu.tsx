import './user-menu.scss';
import Dropdown from 'react-bootstrap/Dropdown';
import { Link } from 'react-router';
import { useCurrentUser } from '../session.ts';

/** The signed-in menu: labelled with the user's name (or 'User'), with User Panel, Admin (owners) and Exit. */
export default function UserMenu({ name }: { name: string }) {
  const owner = useCurrentUser()?.owner === true;
  return (
    <Dropdown as="div" align="end">
      <Dropdown.Toggle as="button" className="nav-link btn btn-link" id="user-menu">
        {name || 'User'}
      </Dropdown.Toggle>
      <Dropdown.Menu as="ul">
        <li>
          <Dropdown.Item as={Link} to="/user-panel">
            User Panel
          </Dropdown.Item>
        </li>
        {owner && (
          <li>
            <Dropdown.Item as={Link} to="/admin">
              Admin
            </Dropdown.Item>
          </li>
        )}
        <li>
          <Dropdown.Item as={Link} to="/exit">
            Exit
          </Dropdown.Item>
        </li>
      </Dropdown.Menu>
    </Dropdown>
  );
}
