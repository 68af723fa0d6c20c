import './user-menu.scss';
import Dropdown from 'react-bootstrap/Dropdown';
import { Link } from 'react-router';
import { useCurrentUser } from '../session.ts';

/**
 * The signed-in menu: labelled with the user's name (or 'User'), with User Panel, Admin (owners) and
 * Exit. `pinned` (the open phone menu): the items stay shown below the name, in the panel's flow.
 */
export default function UserMenu({ name, pinned = false }: { name: string; pinned?: boolean }) {
  const owner = useCurrentUser()?.owner === true;
  return (
    <Dropdown as="div" align="end" {...(pinned ? { show: true } : {})}>
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
